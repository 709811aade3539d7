// The agent's commit off the reply's path, on the built dist/ (run: npm test, after n8n-node
// build): the memory node starts it and returns; the Twin Core node's Save Agent Turn collects
// the outcome after the reply and sends a pending turn again.
const test = require('node:test');
const assert = require('node:assert/strict');

const pending = require('../dist/nodes/shared/pending.js');
const { TwinCoreChatMemory } = require('../dist/nodes/TwinCoreMemory/memory.js');
const { saveAgentTurn } = require('../dist/nodes/TwinCore/save.js');
const { TwinCore } = require('../dist/nodes/TwinCore/TwinCore.node.js');

const SETTINGS = {
	load: { userId: 'tg:1', agentId: 'deanna', chatId: 'tg:1', now: '2026-11-24T10:00:00Z' },
	turnId: 'tg:500', externalId: null, commitTimeoutMs: 1000,
};

function session() {
	return {
		settings: SETTINGS,
		loaded: async () => ({ activeEntityIds: [], history: [], system: null }),
		done: () => {},
		report: () => {},
	};
}

/** An n8n context whose HTTP helper answers with `answer(request)` (may be a never-settling promise). */
function context(executionId, answer, items = [{ json: {} }]) {
	const calls = [];
	return {
		calls,
		getCredentials: async () => ({ memoryUrl: 'http://memory' }),
		getNode: () => ({ name: 'Save turn' }),
		getExecutionId: () => executionId,
		getInputData: () => items,
		getNodeParameter: (name, _i, fallback) => (name === 'operation' ? 'saveAgentTurn' : fallback),
		helpers: {
			httpRequestWithAuthentication: {
				call: (_ctx, _cred, request) => { calls.push(request); return answer(request); },
			},
		},
	};
}

const httpError = (code, message) => Object.assign(new Error(message), { httpCode: String(code) });

test('the reply never waits for the commit: a hung Twin Core does not hold saveTurn', async () => {
	let release;
	const hung = new Promise((resolve) => { release = resolve; });
	const ctx = context('x-hung', () => hung);
	const memory = new TwinCoreChatMemory(ctx, session());
	// saveTurn resolves although the commit cannot finish before release() is called.
	await memory.saveTurn('hi', 'hello');
	await new Promise((resolve) => setImmediate(resolve));
	assert.equal(ctx.calls.length, 1, 'the commit is in flight');
	assert.equal(ctx.calls[0].url, 'http://memory/v1/commit');
	release({ plan_source: 'judge' });
	const [done] = await pending.take('x-hung');
	assert.equal(done.committed, true);
});

test('commit outcomes: 200 stored, 409 stored before, 5xx/429/network retried, other 4xx final', () => {
	const body = { turn_id: 'tg:1' };
	assert.equal(pending.outcome(body, 1, { answer: {} }).committed, true);
	const conflict = pending.outcome(body, 1, { error: httpError(409, 'committed with a different body') });
	assert.deepEqual([conflict.committed, conflict.already_stored, conflict.pending], [true, true, null]);
	for (const error of [httpError(503, 'down'), httpError(429, 'slow down'), new Error('ECONNREFUSED'),
		Object.assign(new Error('timeout'), { code: 'ECONNABORTED' })]) {
		const failed = pending.outcome(body, 2, { error });
		assert.deepEqual([failed.committed, failed.retry, failed.pending, failed.attempts], [false, true, body, 2], error.message);
	}
	const refused = pending.outcome(body, 1, { error: httpError(422, 'bad now') });
	assert.deepEqual([refused.committed, refused.retry], [false, false]);
	assert.equal(pending.httpCodeOf({ response: { status: 502 } }), 502);
	assert.equal(pending.httpCodeOf({ cause: { response: { status: 401 } } }), 401);
});

test('Save Agent Turn: hands over the failed commit with its body, once per execution, first failure marked', async () => {
	const memoryCtx = context('x-down', () => Promise.reject(httpError(503, 'Service Unavailable')));
	await new TwinCoreChatMemory(memoryCtx, session()).saveTurn('Nora lives in Bergen', 'Noted!');
	// Telegram sent the reply in two chunks: two items, still one turn.
	const [out] = await saveAgentTurn.call(context('x-down', () => ({}), [{ json: {} }, { json: {} }]));
	assert.equal(out.length, 1);
	const item = out[0].json;
	assert.deepEqual([item.committed, item.retry, item.first_failure, item.attempts], [false, true, true, 1]);
	assert.equal(item.pending.turn_id, 'tg:500');
	assert.equal(item.pending.messages[0].text, 'Nora lives in Bergen');
	// After the durable wait, the pending item is sent again: memory is back.
	const retry = context('x-later', async () => ({ plan_source: 'judge' }), [{ json: item }]);
	const [[again]] = await saveAgentTurn.call(retry);
	assert.deepEqual([again.json.committed, again.json.attempts, again.json.first_failure], [true, 2, false]);
	assert.deepEqual(retry.calls[0].body, item.pending);
	// Still down: a later failure is not a first failure (the alert was raised once).
	const stillDown = context('x-later2', () => Promise.reject(new Error('ECONNREFUSED')), [{ json: item }]);
	const [[third]] = await saveAgentTurn.call(stillDown);
	assert.deepEqual([third.json.committed, third.json.retry, third.json.first_failure], [false, true, false]);
});

test('Save Agent Turn through the action node, and with nothing to save', async () => {
	const node = new TwinCore();
	const operation = node.description.properties.find((p) => p.name === 'operation' && p.displayOptions.show.resource[0] === 'turn');
	assert.ok(operation.options.some((o) => o.value === 'saveAgentTurn'));
	const [[item]] = await node.execute.call(context('x-none', () => ({})));
	assert.equal(item.json.committed, true);
	assert.equal(item.json.turn_id, null);
});
