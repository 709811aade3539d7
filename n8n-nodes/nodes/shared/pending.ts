import type { IDataObject } from 'n8n-workflow';

import { callTwin, requestId, type TwinContext } from './client';

/**
 * The agent's commits, off the reply's path. The memory node starts a turn's commit when the
 * agent saves it and returns at once (the reply never waits for Twin Core); the commit's
 * outcome is kept here, by execution, until the Twin Core node's *Turn → Save Agent Turn*
 * (after the reply, in the same execution and so in the same process, queue mode included)
 * takes it. A turn that could not be committed comes out of that node as an item carrying its
 * commit body (`pending`), which the workflow keeps across a durable wait and sends again:
 * n8n's execution data, not this process, holds it from then on.
 */
export interface CommitOutcome {
	turn_id: string;
	/** The turn is stored: now, or by an earlier delivery of the same turn id. */
	committed: boolean;
	/** Stored before: the same body replayed, or another body under this turn id (409). */
	already_stored: boolean;
	/** Not stored, and a later attempt can succeed (network, timeout, 5xx, 429). */
	retry: boolean;
	http_code: number | null;
	error: string | null;
	/** Attempts so far (this one included). */
	attempts: number;
	/** The commit body to send again when not committed; null once stored. */
	pending: IDataObject | null;
	/** memory-upserter's answer (facts, todos, entities, warnings) when it answered 200. */
	answer: IDataObject | null;
}

/** How many executions' outcomes are kept for a Save node that never comes (oldest go first). */
const MAX_EXECUTIONS = 256;
const outbox = new Map<string, Array<Promise<CommitOutcome | null>>>();

/** Keeps one execution's commit until the workflow's Save Agent Turn node takes it. */
export function track(executionId: string, commit: Promise<CommitOutcome | null>): void {
	const list = outbox.get(executionId) ?? [];
	list.push(commit);
	outbox.set(executionId, list);
	while (outbox.size > MAX_EXECUTIONS) outbox.delete(outbox.keys().next().value as string);
}

/** The execution's commits (awaited), removed from the outbox. */
export async function take(executionId: string): Promise<CommitOutcome[]> {
	const list = outbox.get(executionId) ?? [];
	outbox.delete(executionId);
	return (await Promise.all(list)).filter((o): o is CommitOutcome => o !== null);
}

/** The HTTP status of a failed call, whichever way n8n's request helper reported it. */
export function httpCodeOf(error: unknown): number | null {
	const e = (error ?? {}) as IDataObject & { response?: IDataObject; cause?: IDataObject };
	const cause = (e.cause ?? {}) as IDataObject & { response?: IDataObject };
	for (const value of [
		e.httpCode, e.statusCode, e.status, e.response?.status, cause.status, cause.statusCode,
		cause.response?.status,
	]) {
		const code = Number(value);
		if (Number.isInteger(code) && code >= 100 && code < 600) return code;
	}
	return null;
}

/** A refusal that will never change (a 4xx other than 408 and 429): no point in retrying. */
export function isFinal(code: number | null): boolean {
	return code !== null && code >= 400 && code < 500 && code !== 408 && code !== 429;
}

/** One commit attempt's outcome: a 200, a 409 (stored before), or a failure to retry or not. */
export function outcome(
	body: IDataObject, attempts: number, result: { answer: IDataObject } | { error: unknown },
): CommitOutcome {
	const turnId = String(body.turn_id ?? '');
	const base = { turn_id: turnId, attempts, http_code: null, error: null, pending: null, answer: null };
	if ('answer' in result) {
		return { ...base, committed: true, already_stored: false, retry: false, answer: result.answer };
	}
	const code = httpCodeOf(result.error);
	const message = errorText(result.error);
	if (code === 409) {
		// An earlier delivery of this turn stored it (its reply may differ from this run's):
		// the turn is kept, nothing is lost.
		return { ...base, committed: true, already_stored: true, retry: false, http_code: code, error: message };
	}
	return {
		...base, committed: false, already_stored: false, retry: !isFinal(code), http_code: code,
		error: message, pending: body,
	};
}

function errorText(error: unknown): string {
	const e = error as { message?: unknown; description?: unknown } | null;
	const said = [e?.message, e?.description].filter((x) => typeof x === 'string' && x !== '');
	return (said.length ? said.join(': ') : String(error)).slice(0, 500);
}

/** One attempt at memory-upserter's `POST /v1/commit` (idempotent by turn id); never throws. */
export async function sendCommit(
	ctx: TwinContext, body: IDataObject, timeoutMs: number, attempts: number,
): Promise<CommitOutcome> {
	try {
		const answer = await callTwin(ctx, {
			node: 'memory', route: '/v1/commit', body, timeoutMs,
			requestId: requestId(ctx, attempts > 1 ? `commit-${attempts}` : 'commit'),
		});
		return outcome(body, attempts, { answer });
	} catch (error) {
		return outcome(body, attempts, { error });
	}
}
