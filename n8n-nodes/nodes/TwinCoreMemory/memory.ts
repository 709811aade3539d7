import { BaseChatHistory, BaseChatMemory, type Message } from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

import type { TwinContext } from '../shared/client';
import { type CommitOutcome, sendCommit, track } from '../shared/pending';
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
 * body) must not take the reply back — it is reported on the memory's output
 * (`twinCoreCommit` with `error`) and handed, with its body, to the workflow's
 * *Save Agent Turn* node, which sends it again later.
 */
export async function commitTurn(
	ctx: TwinContext, session: Session, turn: TurnRecord,
): Promise<CommitOutcome | null> {
	const { settings } = session;
	if (turn.input.trim() === '') return null;
	// A memory that never loaded still lets the turn be stored (without the active entities).
	const active = await session.loaded().then((m) => m.activeEntityIds, () => [] as string[]);
	const body: IDataObject = {
		user_id: settings.load.userId,
		agent_id: settings.load.agentId,
		chat_id: settings.load.chatId,
		turn_id: settings.turnId,
		messages: commitMessages(turn, settings.load.now, settings.externalId),
		active_entity_ids: active,
		now: settings.load.now,
	};
	const result = await sendCommit(ctx, body, settings.commitTimeoutMs, 1);
	const answer = result.answer ?? {};
	session.report('twinCoreCommit', {
		turn_id: settings.turnId,
		committed: result.committed,
		...(result.already_stored ? { already_stored: true } : {}),
		...(result.error ? { error: result.error, http_code: result.http_code, retry: result.retry } : {}),
		...(result.answer
			? { plan_source: answer.plan_source, facts: answer.facts, todos: answer.todos, entities: answer.entities, warnings: answer.warnings }
			: {}),
	});
	if (result.committed) session.done();
	return result;
}

/**
 * Starts the turn's commit and returns at once: the agent's reply never waits for Twin Core.
 * The outcome waits, by execution, for the workflow's *Save Agent Turn* node.
 */
export function saveInBackground(ctx: TwinContext, session: Session, turn: TurnRecord): void {
	track(ctx.getExecutionId(), commitTurn(ctx, session, turn));
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
		saveInBackground(this.ctx, this.session, turnFromMessages(messages));
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
		saveInBackground(this.ctx, this.session, { input, toolNotes: [], output });
	}

	async clear(): Promise<void> {}
}
