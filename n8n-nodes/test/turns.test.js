// Pure logic of the package, on the built dist/ (run: npm test, after n8n-node build).
const test = require('node:test');
const assert = require('node:assert/strict');

const turns = require('../dist/nodes/shared/turns.js');
const { agentMessages } = require('../dist/nodes/TwinCoreMemory/memory.js');
const { provenance } = require('../dist/nodes/shared/recall.js');
const memo = require('../dist/nodes/shared/executionMemo.js');

const text = (role, value) => ({ role, content: [{ type: 'text', text: value }] });

test('history replays whole turns: it never starts with a reply', () => {
	const lines = [
		{ role: 'assistant', content: 'orphan reply' },
		{ role: 'user', content: 'hi' },
		{ role: 'assistant', content: 'hello' },
	];
	assert.deepEqual(turns.wholeTurns(lines), lines.slice(1));
	assert.deepEqual(turns.wholeTurns([{ role: 'assistant', content: 'x' }]), []);
});

test("the envelope's messages split into the memory block and the replayed history", () => {
	const { system, history } = turns.splitEnvelope([
		{ role: 'system', content: '[AUTHORITY RULES] …' },
		{ role: 'assistant', content: 'cut in half' },
		{ role: 'user', content: 'my sister Marta lives in Lisbon' },
		{ role: 'assistant', content: 'Noted.' },
		{ role: 'user', content: 'the current message' },
	]);
	assert.equal(system, '[AUTHORITY RULES] …');
	assert.deepEqual(history.map((l) => l.content), ['my sister Marta lives in Lisbon', 'Noted.']);
});

test('without an envelope, the last lines of working memory, by whole turns', () => {
	const lines = turns.recentTurns(
		[
			{ role: 'user', text: 'a' }, { role: 'assistant', text: 'b' },
			{ role: 'user', text: 'c' }, { role: 'assistant', text: 'd' },
		],
		3,
	);
	assert.deepEqual(lines.map((l) => l.content), ['c', 'd']);
});

test('a turn with tools keeps each call on one line with its own result', () => {
	const record = turns.turnFromMessages([
		text('user', 'what do you remember about Marta?'),
		{ role: 'assistant', content: [
			{ type: 'tool-call', toolCallId: 'c1', toolName: 'recall', input: '{"query":"Marta"}' },
			{ type: 'tool-call', toolCallId: 'c2', toolName: 'calendar', input: '{}' },
		] },
		{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', result: 'Marta lives in Lisbon' }] },
		text('assistant', 'Marta lives in Lisbon.'),
	]);
	assert.equal(record.input, 'what do you remember about Marta?');
	assert.deepEqual(record.toolNotes, [
		'recall({"query":"Marta"}) → Marta lives in Lisbon',
		'calendar({}) → no result',
	]);
	assert.equal(record.output, 'Marta lives in Lisbon.');
	const messages = turns.commitMessages(record, '2026-11-24T10:00:00Z', null);
	assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'assistant']);
	assert.match(messages[1].text, /^\[tools used\] recall/);
});

test('a long tool result is cut beside its call', () => {
	const record = turns.turnFromMessages([
		text('user', 'q'),
		{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: '{}' }] },
		{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', result: 'x'.repeat(5000) }] },
		text('assistant', 'done'),
	]);
	assert.equal(record.toolNotes[0].length, 't({}) → '.length + turns.TOOL_RESULT_CHARS);
});

test("the turn id is the designer's, else stable for one execution and message", () => {
	assert.equal(turns.turnId(' tg:42 ', '7', ['u', 'a', 'c'], 'hi'), 'tg:42');
	const a = turns.turnId('', '7', ['u', 'a', 'c'], 'hi');
	assert.equal(a, turns.turnId('', '7', ['u', 'a', 'c'], 'hi'));
	assert.notEqual(a, turns.turnId('', '8', ['u', 'a', 'c'], 'hi'));
	assert.notEqual(a, turns.turnId('', '7', ['u', 'a', 'c'], 'hello'));
	assert.match(a, /^n8n:7:[0-9a-f]{16}$/);
});

test('the agent gets the memory block as one system message, then the history', () => {
	const messages = agentMessages({
		system: '[AUTHORITY RULES] …', history: [{ role: 'user', content: 'hi' }],
		pendingQuestion: null, activeEntityIds: [], recalled: [], gate: null, degraded: [], timingsMs: {},
	});
	assert.deepEqual(messages.map((m) => m.role), ['system', 'user']);
});

test('a pending question reaches the agent even when no memory block was rendered', () => {
	const messages = agentMessages({
		system: null, history: [], pendingQuestion: 'Which Marta do you mean?',
		activeEntityIds: [], recalled: [], gate: null, degraded: [], timingsMs: {},
	});
	assert.equal(messages.length, 1);
	assert.match(messages[0].content[0].text, /ask the user exactly this question: "Which Marta do you mean\?"/);
});

test('Twin Core down: no system message, no history, the agent still runs', () => {
	const messages = agentMessages({
		system: null, history: [], pendingQuestion: null, activeEntityIds: [], recalled: [],
		gate: null, degraded: ['pulse: ECONNREFUSED'], timingsMs: {},
	});
	assert.deepEqual(messages, []);
});

test('provenance lists every recalled item with its message ids, date and scores', () => {
	const found = provenance(
		{ foundation: [{ fact_id: 'f1', text: 'Marta lives in Lisbon', provenance: { row_id: 'f1', message_ids: ['m1'] } }] },
		{
			FACTS: { relevant_facts: [] },
			EPISODE: {
				turns: [{ message_id: 'm1', role: 'user', text: 'my sister Marta lives in Lisbon', ts: '2026-11-22T09:00:00Z', score: 0.8, score_details: { cosine: 0.7 }, provenance: { row_id: 'm1', message_ids: ['m1'] } }],
				hits: [{ episode_id: 'e1', day: '2026-11-22', one_liner: 'Talked about Marta', reflection: 'r', score: 0.5, score_details: {}, provenance: { row_id: 'e1', message_ids: ['m1', 'm2'] } }],
			},
			KNOWLEDGE: { hits: [] },
		},
	);
	assert.deepEqual(found.map((r) => [r.kind, r.id, r.messageIds, r.date]), [
		['fact', 'f1', ['m1'], null],
		['turn', 'm1', ['m1'], '2026-11-22T09:00:00Z'],
		['episode', 'e1', ['m1', 'm2'], '2026-11-22'],
	]);
	assert.deepEqual(found[1].scores, { cosine: 0.7 });
});

test('one load per execution key, dropped when forgotten', async () => {
	let loads = 0;
	const load = async () => ++loads;
	assert.equal(await memo.memoized('exec-1', load), 1);
	assert.equal(await memo.memoized('exec-1', load), 1);
	memo.forget('exec-1');
	assert.equal(await memo.memoized('exec-1', load), 2);
});

test('a failed commit never takes the reply back: it is reported, and kept for the Save node', async () => {
	const { TwinCoreChatMemory } = require('../dist/nodes/TwinCoreMemory/memory.js');
	const pending = require('../dist/nodes/shared/pending.js');
	const reported = [];
	const session = (loaded) => ({
		settings: {
			load: { userId: 'alice', agentId: 'deanna', chatId: 'c1', now: null },
			turnId: 't1', externalId: null, commitTimeoutMs: 1000,
		},
		loaded,
		done: () => reported.push(['done']),
		report: (action, json) => reported.push([action, json]),
	});
	const refused = Object.assign(new Error('422 Invalid input: $.turn_id'), { httpCode: '422' });
	const ctx = (id, answer) => ({
		getCredentials: async () => ({ memoryUrl: 'http://memory' }),
		getNode: () => ({ name: 'Twin Core Memory' }),
		getExecutionId: () => id,
		helpers: { httpRequestWithAuthentication: { call: answer } },
	});
	const loaded = async () => ({ activeEntityIds: ['e1'], history: [], system: '' });
	await new TwinCoreChatMemory(ctx('e1', async () => { throw refused; }), session(loaded)).saveTurn('hi', 'hello!');
	const [first] = await pending.take('e1');
	assert.equal(first.committed, false);
	assert.equal(first.retry, false, 'a 422 is final: no retry');
	assert.equal(first.http_code, 422);
	assert.equal(first.pending.turn_id, 't1');
	assert.deepEqual(first.pending.active_entity_ids, ['e1']);
	// A memory that never loaded still commits the turn (without active entities).
	const bodies = [];
	const down = async () => { throw new Error('memory unreachable'); };
	const ok = async (_c, _n, request) => { bodies.push(request.body); return { plan_source: 'judge' }; };
	await new TwinCoreChatMemory(ctx('e2', ok), session(down)).saveTurn('hi', 'hello!');
	const [second] = await pending.take('e2');
	assert.equal(second.committed, true);
	assert.deepEqual(bodies[0].active_entity_ids, []);
	assert.deepEqual(reported, [
		['twinCoreCommit', { turn_id: 't1', committed: false, error: '422 Invalid input: $.turn_id', http_code: 422, retry: false }],
		['twinCoreCommit', { turn_id: 't1', committed: true, plan_source: 'judge', facts: undefined, todos: undefined, entities: undefined, warnings: undefined }],
		['done'],
	]);
});
