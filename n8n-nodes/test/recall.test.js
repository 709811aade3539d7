// The memory load's calls, on the built dist/ (run: npm test, after n8n-node build), with an
// n8n context whose HTTP helper answers as the Twin Core routes would (the real n8n and nodes
// are driven by tests/e2e/test_agent_node.py).
const test = require('node:test');
const assert = require('node:assert/strict');

const { loadMemory } = require('../dist/nodes/shared/recall.js');

const PULSE = { session: { turns: [{ role: 'user', text: 'hi' }], scratch: {}, active_entity_ids: [], summary: '' }, AFFECT: {} };
const HYDRATE = { GRAPH: { foundation: [{ fact_id: 'f1', text: 'Marta lives in Lisbon', provenance: { message_ids: ['m1'] } }] }, active_entity_ids: ['e1'] };
const RETRIEVE = { gate: { open: true }, EPISODE: {}, KNOWLEDGE: {}, FACTS: {}, ranking: [{ kind: 'fact', id: 'f1', score: 0.9 }] };
const ENVELOPE = { messages: [{ role: 'system', content: 'MEMORY' }, { role: 'user', content: 'Where does Marta live?' }] };

function context(answers) {
	const calls = [];
	return {
		calls,
		async getCredentials() {
			return { pulseUrl: 'http://p', hydrateUrl: 'http://h', retrieveUrl: 'http://r', envelopeUrl: 'http://e' };
		},
		getNode: () => ({ name: 'Twin Core Memory' }),
		getExecutionId: () => '7',
		helpers: {
			httpRequestWithAuthentication: {
				async call(_ctx, _credential, request) {
					const route = new URL(request.url).pathname;
					calls.push({ route, body: request.body });
					const answer = answers[route];
					if (answer instanceof Error) throw answer;
					return answer;
				},
			},
		},
	};
}

const REQUEST = {
	userId: 'alice', agentId: 'deanna', chatId: 'c1', message: 'Where does Marta live?',
	messageId: 'm-9', now: null, personaPrompt: 'You are Deanna.', budgetMs: 3000, maxRecentLines: 6,
};

test('one call loads the memory when the turn route answers', async () => {
	const ctx = context({
		'/v1/turn': { next: 'model', pulse: PULSE, hydrate: HYDRATE, retrieve: RETRIEVE, envelope: ENVELOPE },
	});
	const memory = await loadMemory(ctx, REQUEST);
	assert.deepEqual(ctx.calls.map((c) => c.route), ['/v1/turn']);
	assert.equal(ctx.calls[0].body.answer_format, 'text');
	assert.equal(ctx.calls[0].body.message_id, 'm-9');
	assert.equal(memory.system, 'MEMORY');
	assert.deepEqual(memory.activeEntityIds, ['e1']);
	assert.deepEqual(memory.degraded, []);
	assert.deepEqual(memory.recalled.map((r) => r.id), ['f1']);
});

test('a server without the turn route is called node by node, with nothing marked degraded', async () => {
	const ctx = context({
		'/v1/turn': new Error('404 - Not Found'),
		'/v1/pulse': PULSE, '/v1/hydrate': HYDRATE, '/v1/retrieve': RETRIEVE, '/v1/envelope': ENVELOPE,
	});
	const memory = await loadMemory(ctx, REQUEST);
	assert.deepEqual(ctx.calls.map((c) => c.route), ['/v1/turn', '/v1/pulse', '/v1/hydrate', '/v1/retrieve', '/v1/envelope']);
	assert.deepEqual(ctx.calls[4].body.ranking, RETRIEVE.ranking); // memories render in rag-gate's fused order
	assert.equal(memory.system, 'MEMORY');
	assert.deepEqual(memory.degraded, []);
});

test('a pending question is loaded on from where the turn stopped, so the agent still gets the memory block', async () => {
	const question = { GRAPH: { pending_question: { question: 'Which Marta?' } }, active_entity_ids: [] };
	const ctx = context({
		'/v1/turn': { next: 'question', pulse: PULSE, hydrate: question, retrieve: null, envelope: null },
		'/v1/pulse': PULSE, '/v1/hydrate': question, '/v1/retrieve': RETRIEVE, '/v1/envelope': ENVELOPE,
	});
	const memory = await loadMemory(ctx, REQUEST);
	assert.deepEqual(ctx.calls.map((c) => c.route), ['/v1/turn', '/v1/retrieve', '/v1/envelope']);
	assert.equal(memory.pendingQuestion, 'Which Marta?');
	assert.equal(memory.system, 'MEMORY');
});

test('memory down: the steps that failed are named, the agent gets the recent turns', async () => {
	const down = new Error('503 - Service Unavailable');
	const ctx = context({
		'/v1/turn': down, '/v1/pulse': PULSE, '/v1/hydrate': down, '/v1/retrieve': down, '/v1/envelope': ENVELOPE,
	});
	const memory = await loadMemory(ctx, REQUEST);
	assert.deepEqual(memory.degraded.map((d) => d.split(':')[0]), ['hydrate', 'retrieve']);
	assert.equal(memory.system, 'MEMORY');
});
