import type { Message } from '@n8n/ai-node-sdk';
import { createHash } from 'crypto';

/** A chat message as Twin Core renders and stores it. */
export interface ChatLine {
	role: 'user' | 'assistant' | 'system';
	content: string;
}

/** What one agent turn commits: the user's words, the tool calls paired to their results, the answer. */
export interface TurnRecord {
	input: string;
	toolNotes: string[];
	output: string;
}

/** Longest tool result kept beside its call in the turn's record. */
export const TOOL_RESULT_CHARS = 600;

/**
 * History for the agent, cut by whole turns: it starts at a user message, so a reply (or a
 * tool note) is never replayed without the message it answered.
 */
export function wholeTurns(history: ChatLine[]): ChatLine[] {
	const first = history.findIndex((line) => line.role === 'user');
	return first < 0 ? [] : history.slice(first);
}

/**
 * Envelope-validator's rendered messages → the memory block (its system message) and the
 * replayed history; the last message (the current user message) is left out, since the
 * agent adds its own input.
 */
export function splitEnvelope(messages: ChatLine[]): { system: string | null; history: ChatLine[] } {
	const system = messages.length > 0 && messages[0].role === 'system' ? messages[0].content : null;
	const rest = messages.slice(system === null ? 0 : 1, -1);
	return { system, history: wholeTurns(rest.filter((line) => line.role !== 'system')) };
}

/** Pulse-decay's working-memory turns (oldest first) → the last `max` lines, by whole turns. */
export function recentTurns(turns: Array<{ role?: unknown; text?: unknown }>, max: number): ChatLine[] {
	const lines = turns
		.filter((turn) => (turn.role === 'user' || turn.role === 'assistant') && typeof turn.text === 'string')
		.map((turn) => ({ role: turn.role as 'user' | 'assistant', content: turn.text as string }));
	return wholeTurns(lines.slice(-max));
}

export function toSdkMessages(lines: ChatLine[]): Message[] {
	return lines.map((line) => ({ role: line.role, content: [{ type: 'text', text: line.content }] }));
}

function textOf(message: Message): string {
	return message.content
		.map((block) => (block.type === 'text' ? block.text : ''))
		.filter(Boolean)
		.join('\n');
}

function clip(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function resultText(result: unknown): string {
	return typeof result === 'string' ? result : JSON.stringify(result ?? null);
}

/**
 * The messages n8n's agent saves for a turn that used tools (user, assistant tool calls, tool
 * results, final answer) → one record where every call sits on one line with its result, so
 * no replay can ever split a call from its result. Calls without a result are kept as such.
 */
export function turnFromMessages(messages: Message[]): TurnRecord {
	const input = messages.filter((m) => m.role === 'user').map(textOf).join('\n');
	const results = new Map<string, string>();
	for (const message of messages) {
		for (const block of message.content) {
			if (block.type === 'tool-result') results.set(block.toolCallId, resultText(block.result));
		}
		if (message.role === 'tool' && !message.content.some((b) => b.type === 'tool-result')) {
			const id = message.id ?? message.name ?? '';
			if (id) results.set(id, textOf(message));
		}
	}
	const toolNotes: string[] = [];
	for (const message of messages) {
		for (const block of message.content) {
			if (block.type !== 'tool-call') continue;
			const result = block.toolCallId ? results.get(block.toolCallId) : undefined;
			const outcome = result === undefined ? 'no result' : clip(result, TOOL_RESULT_CHARS);
			toolNotes.push(`${block.toolName}(${clip(block.input, 300)}) → ${outcome}`);
		}
	}
	const finals = messages.filter((m) => m.role === 'assistant' && textOf(m).trim() !== '');
	const last = finals.length > 0 ? finals[finals.length - 1] : undefined;
	const output =
		last && !last.content.some((b) => b.type === 'tool-call') ? textOf(last) : '';
	return { input, toolNotes, output };
}

/** The commit body's messages for one turn: the user's words, a tool note, the answer. */
export function commitMessages(turn: TurnRecord, ts: string | null, externalId: string | null): IDataLike[] {
	const out: IDataLike[] = [
		{ role: 'user', text: turn.input, ts, external_id: externalId },
	];
	if (turn.toolNotes.length > 0) {
		out.push({ role: 'assistant', text: `[tools used] ${turn.toolNotes.join(' | ')}`, ts });
	}
	if (turn.output.trim() !== '') out.push({ role: 'assistant', text: turn.output, ts });
	return out;
}

export type IDataLike = { [key: string]: string | null };

/**
 * The turn's idempotency key: the designer's (Telegram's update id) when given, else derived
 * from the execution and the message, so a retried execution step commits once.
 */
export function turnId(given: string, executionId: string, ids: string[], message: string): string {
	if (given.trim() !== '') return given.trim().slice(0, 128);
	const digest = createHash('sha256')
		.update([...ids, message].join('\u0000'))
		.digest('hex')
		.slice(0, 16);
	return `n8n:${executionId}:${digest}`;
}
