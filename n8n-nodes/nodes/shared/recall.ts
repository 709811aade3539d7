import type { IDataObject } from 'n8n-workflow';

import { callTwin, requestId, type TwinContext, type TwinNode } from './client';
import { type ChatLine, recentTurns, splitEnvelope } from './turns';

export interface TurnIds {
	userId: string;
	agentId: string;
	chatId: string;
}

export interface LoadRequest extends TurnIds {
	message: string;
	messageId: string;
	now: string | null;
	personaPrompt: string;
	/** The whole memory load's budget; past it the agent answers with what arrived. */
	budgetMs: number;
	/** Lines of working memory replayed when the envelope could not be built. */
	maxRecentLines: number;
	/**
	 * False when the reply is read in company (a group chat): the agent gets none of the
	 * person's private memory (no GRAPH, episodes, knowledge, facts or same-name question),
	 * only this chat's own recent turns.
	 */
	privateMemory?: boolean;
}

/** Why one memory item reached the agent: where it comes from and how it scored. */
export interface Recalled {
	kind: 'fact' | 'turn' | 'episode' | 'knowledge' | 'commitment';
	id: string;
	text: string;
	score: number | null;
	scores: IDataObject;
	messageIds: string[];
	date: string | null;
	source: string | null;
}

export interface LoadedMemory {
	system: string | null;
	history: ChatLine[];
	pendingQuestion: string | null;
	activeEntityIds: string[];
	recalled: Recalled[];
	gate: IDataObject | null;
	/** Steps that failed or ran out of time: the memory was loaded without them. */
	degraded: string[];
	timingsMs: IDataObject;
}

type Step = 'turn' | 'pulse' | 'hydrate' | 'retrieve' | 'envelope';

/** The share of the load's budget the one-call turn may take before the node-by-node path. */
export const TURN_SHARE = 2 / 3;

function obj(value: unknown): IDataObject {
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
}

function list(value: unknown): IDataObject[] {
	return Array.isArray(value) ? (value as IDataObject[]) : [];
}

function str(value: unknown): string | null {
	return typeof value === 'string' && value !== '' ? value : null;
}

function num(value: unknown): number | null {
	return typeof value === 'number' ? value : null;
}

/**
 * One fast-brain round for the agent: pulse → hydrate → retrieve → envelope. First in one call
 * (rag-gate's `/v1/turn`, which runs the four steps in the server); when that call fails, each
 * node is called once, and when the turn stopped early (a replayed message id, a pending
 * question), the nodes it did not reach are.
 * Fails open: a step that errors or runs past the budget is skipped and named in `degraded`;
 * without pulse there is no memory at all, without the envelope the agent gets the working
 * memory's recent turns. Never throws for Twin Core's sake.
 */
export async function loadMemory(ctx: TwinContext, req: LoadRequest): Promise<LoadedMemory> {
	const started = Date.now();
	const timings: IDataObject = {};
	const degraded: string[] = [];
	const ids = { user_id: req.userId, agent_id: req.agentId, chat_id: req.chatId };
	const now = req.now || null;

	async function step(
		name: Step, node: TwinNode, route: string, body: IDataObject, limitMs = Infinity,
	): Promise<IDataObject | null> {
		const left = Math.min(req.budgetMs - (Date.now() - started), limitMs);
		if (left <= 0) {
			degraded.push(`${name}: skipped, the ${req.budgetMs} ms budget was spent`);
			return null;
		}
		const t0 = Date.now();
		try {
			return await callTwin(ctx, {
				node,
				route,
				body,
				timeoutMs: left,
				requestId: requestId(ctx, name),
			});
		} catch (error) {
			degraded.push(`${name}: ${(error as Error).message ?? String(error)}`.slice(0, 300));
			return null;
		} finally {
			timings[name] = Date.now() - t0;
		}
	}

	const empty: LoadedMemory = {
		system: null, history: [], pendingQuestion: null, activeEntityIds: [], recalled: [],
		gate: null, degraded, timingsMs: timings,
	};
	// The one call may take TURN_SHARE of the budget: if it hangs, the rest still loads
	// working memory's recent turns node by node.
	const whole = await step('turn', 'retrieve', '/v1/turn', {
		...ids, message: req.message, message_id: req.messageId, now,
		persona_prompt: req.personaPrompt, answer_format: 'text', private_memory: req.privateMemory !== false,
	}, req.budgetMs * TURN_SHARE);
	if (whole !== null && whole.next === 'model') {
		timings.total = Date.now() - started;
		return loaded(req, obj(whole.pulse), obj(whole.hydrate), obj(whole.retrieve), obj(whole.envelope), degraded, timings);
	}
	if (whole === null) degraded.length = 0; // the steps below say what they could not load
	// Node by node from where the one call stopped: what it answered is not asked again.
	const pulse = whole ? obj(whole.pulse) : await step('pulse', 'pulse', '/v1/pulse', {
		...ids, message: req.message, message_id: req.messageId, now,
	});
	if (pulse === null) return empty;
	const session = obj(pulse.session);
	const scratch = obj(session.scratch);
	const turns = list(session.turns);

	const hydrate = whole?.hydrate ? obj(whole.hydrate) : await step('hydrate', 'hydrate', '/v1/hydrate', {
		...ids, message: req.message, active_entity_ids: session.active_entity_ids ?? [],
		topic_focus: scratch.topic_focus ?? null, now,
	});
	const graph = graphOf(req, hydrate);
	const activeEntityIds = activeIds(hydrate);

	const retrieve = req.privateMemory === false ? null : await step('retrieve', 'retrieve', '/v1/retrieve', {
		...ids, message: req.message, entity_ids: activeEntityIds, scratch: session.scratch ?? null,
		now,
	});
	const envelope = await step('envelope', 'envelope', '/v1/envelope', {
		...ids,
		AFFECT: pulse.AFFECT,
		GRAPH: graph,
		...(retrieve ? { EPISODE: retrieve.EPISODE, KNOWLEDGE: retrieve.KNOWLEDGE, FACTS: retrieve.FACTS, ranking: retrieve.ranking ?? [] } : {}),
		persona_prompt: req.personaPrompt,
		conversation_summary: typeof session.summary === 'string' ? session.summary : '',
		recent_turns: turns,
		user_message: req.message,
		now,
		answer_format: 'text',
	});
	timings.total = Date.now() - started;
	return loaded(req, pulse, hydrate, retrieve, envelope, degraded, timings);
}

/**
 * GRAPH as hydrate answered it, or an empty one of this user and agent (also when the
 * person's private memory stays out of this chat: the hydrate then only gives the commit its
 * active entity ids).
 */
function graphOf(req: LoadRequest, hydrate: IDataObject | null): IDataObject {
	return hydrate && req.privateMemory !== false ? obj(hydrate.GRAPH) : { user_id: req.userId, agent_id: req.agentId };
}

function activeIds(hydrate: IDataObject | null): string[] {
	return hydrate ? (list(hydrate.active_entity_ids) as unknown as string[]) : [];
}

/** What the agent gets from the four answers (any but pulse may be missing). */
function loaded(
	req: LoadRequest, pulse: IDataObject, hydrate: IDataObject | null, retrieve: IDataObject | null,
	envelope: IDataObject | null, degraded: string[], timings: IDataObject,
): LoadedMemory {
	const turns = list(obj(pulse.session).turns);
	const graph = graphOf(req, hydrate);
	const activeEntityIds = activeIds(hydrate);
	const rendered = envelope ? splitEnvelope(list(envelope.messages) as unknown as ChatLine[]) : null;
	const pending = obj(graph.pending_question);
	return {
		system: rendered?.system ?? null,
		history: rendered ? rendered.history : recentTurns(turns, req.maxRecentLines),
		pendingQuestion: str(pending.question),
		activeEntityIds,
		recalled: provenance(graph, retrieve),
		gate: retrieve ? obj(retrieve.gate) : null,
		degraded,
		timingsMs: timings,
	};
}

/** Every memory item the envelope was built from, with its provenance and per-signal scores. */
export function provenance(graph: IDataObject, retrieve: IDataObject | null): Recalled[] {
	const out: Recalled[] = [];
	const fact = (f: IDataObject, source: string): Recalled => {
		const prov = obj(f.provenance);
		return {
			kind: 'fact', id: String(f.fact_id ?? prov.row_id ?? ''), text: String(f.text ?? ''),
			score: num(f.score), scores: obj(f.score_details),
			messageIds: list(prov.message_ids) as unknown as string[], date: null,
			source: `${source}${prov.source ? ` (${String(prov.source)})` : ''}`,
		};
	};
	for (const f of list(graph.foundation)) out.push(fact(f, 'GRAPH.foundation'));
	for (const f of list(graph.relevant_facts)) out.push(fact(f, 'GRAPH.relevant_facts'));
	for (const t of list(graph.commitments)) {
		out.push({
			kind: 'commitment', id: String(t.todo_id ?? ''), text: String(t.text ?? ''), score: null,
			scores: {}, messageIds: [], date: str(t.due_at) ?? str(t.created_at), source: 'GRAPH.commitments',
		});
	}
	if (retrieve === null) return out;
	const facts = obj(retrieve.FACTS);
	for (const f of list(facts.relevant_facts)) out.push(fact(f, 'rag-gate FACTS'));
	const episode = obj(retrieve.EPISODE);
	for (const t of list(episode.turns)) {
		const prov = obj(t.provenance);
		out.push({
			kind: 'turn', id: String(t.message_id ?? ''), text: `${String(t.role)}: ${String(t.text ?? '')}`,
			score: num(t.score), scores: obj(t.score_details),
			messageIds: list(prov.message_ids).length ? (list(prov.message_ids) as unknown as string[]) : [String(t.message_id ?? '')],
			date: str(t.ts), source: 'rag-gate EPISODE.turns',
		});
	}
	for (const h of list(episode.hits)) {
		const prov = obj(h.provenance);
		out.push({
			kind: 'episode', id: String(h.episode_id ?? ''), text: String(h.one_liner || h.reflection || ''),
			score: num(h.score), scores: obj(h.score_details),
			messageIds: list(prov.message_ids) as unknown as string[], date: str(h.day) ?? str(h.ts),
			source: 'rag-gate EPISODE.hits',
		});
	}
	for (const k of list(obj(retrieve.KNOWLEDGE).hits)) {
		out.push({
			kind: 'knowledge', id: String(k.chunk_id ?? ''), text: String(k.text ?? '').slice(0, 200),
			score: num(k.score), scores: obj(k.score_details), messageIds: [], date: null,
			source: `rag-gate KNOWLEDGE ${String(k.doc_id ?? '')}`,
		});
	}
	return out;
}
