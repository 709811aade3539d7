import { BaseChatHistory, BaseChatMemory, type Message } from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

import { callTwin, requestId, type TwinContext } from '../shared/client';
import type { LoadedMemory, LoadRequest } from '../shared/recall';
import { commitMessages, toSdkMessages, turnFromMessages, type TurnRecord } from '../shared/turns';

export interface TurnSettings {
	load: LoadRequest;
	turnId: string;
	externalId: string | null;
	commitTimeoutMs: number;
}

/** What one execution loaded, shared by the memory and its history for that execution only. */
export interface Session {
	settings: TurnSettings;
	loaded: () => Promise<LoadedMemory>;
	/** Called once the turn is saved: the execution's loaded memory is no longer needed. */
	done: () => void;
	report: (action: string, json: IDataObject) => void;
}

const PENDING_NOTE =
	'Memory cannot tell which person the user means. Before anything that depends on it, ask the user exactly this question: ';

/** The agent's view of Twin Core: the memory block as a system message, then the recent turns. */
export function agentMessages(memory: LoadedMemory): Message[] {
	const system: string[] = [];
	if (memory.system) system.push(memory.system);
	if (memory.pendingQuestion && !(memory.system ?? '').includes(memory.pendingQuestion)) {
		system.push(`[PENDING QUESTION]\n${PENDING_NOTE}${JSON.stringify(memory.pendingQuestion)}`);
	}
	const head = system.length ? [{ role: 'system' as const, content: system.join('\n\n') }] : [];
	return toSdkMessages([...head, ...memory.history]);
}

/**
 * Commits one turn to memory-upserter: the user's words, the tool calls paired to their
 * results, the answer. No plan is sent: Twin Core's judge extracts what to remember from the
 * user's words (with the same validation and grounding as every plan). Idempotent by turn id.
 * Never throws: the agent has answered already, and a failed commit (memory down, a refused
 * body, the memory never loaded) must not take the reply back — it is reported on the
 * memory's output (`twinCoreCommit` with `error`) instead.
 */
export async function commitTurn(ctx: TwinContext, session: Session, turn: TurnRecord): Promise<void> {
	const { settings } = session;
	if (turn.input.trim() === '') return;
	let answer: IDataObject;
	try {
		const memory = await session.loaded();
		const body: IDataObject = {
			user_id: settings.load.userId,
			agent_id: settings.load.agentId,
			chat_id: settings.load.chatId,
			turn_id: settings.turnId,
			messages: commitMessages(turn, settings.load.now, settings.externalId),
			active_entity_ids: memory.activeEntityIds,
			now: settings.load.now,
		};
		answer = await callTwin(ctx, {
			node: 'memory',
			route: '/v1/commit',
			body,
			timeoutMs: settings.commitTimeoutMs,
			requestId: requestId(ctx, 'commit'),
		});
	} catch (error) {
		session.report('twinCoreCommit', {
			turn_id: settings.turnId,
			error: (error as Error)?.message ?? String(error),
		});
		return;
	}
	session.report('twinCoreCommit', {
		turn_id: settings.turnId,
		plan_source: answer.plan_source,
		facts: answer.facts,
		todos: answer.todos,
		entities: answer.entities,
		warnings: answer.warnings,
	});
	session.done();
}

export class TwinCoreChatHistory extends BaseChatHistory {
	constructor(
		private readonly ctx: TwinContext,
		private readonly session: Session,
	) {
		super();
	}

	async getMessages(): Promise<Message[]> {
		return agentMessages(await this.session.loaded());
	}

	async addMessage(message: Message): Promise<void> {
		await this.addMessages([message]);
	}

	/** n8n's agent saves a turn that used tools here (user, calls, results, answer). */
	async addMessages(messages: Message[]): Promise<void> {
		await commitTurn(this.ctx, this.session, turnFromMessages(messages));
	}

	/** Twin Core forgets only on an explicit request (the Twin Core node's Forget). */
	async clear(): Promise<void> {}
}

export class TwinCoreChatMemory extends BaseChatMemory {
	readonly chatHistory: TwinCoreChatHistory;

	constructor(
		private readonly ctx: TwinContext,
		private readonly session: Session,
	) {
		super();
		this.chatHistory = new TwinCoreChatHistory(ctx, session);
	}

	async loadMessages(): Promise<Message[]> {
		return agentMessages(await this.session.loaded());
	}

	async saveTurn(input: string, output: string): Promise<void> {
		await commitTurn(this.ctx, this.session, { input, toolNotes: [], output });
	}

	async clear(): Promise<void> {}
}
