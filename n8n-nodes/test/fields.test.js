// Parameter defaults and the group rule, on the built dist/ (run: npm test).
const test = require('node:test');
const assert = require('node:assert/strict');

const { identityFields, privateMemoryOf } = require('../dist/nodes/shared/fields.js');
const { loadMemory } = require('../dist/nodes/shared/recall.js');
const { TwinCoreRecall } = require('../dist/nodes/TwinCoreRecall/TwinCoreRecall.node.js');

const field = (name) => identityFields.find((f) => f.name === name);

/** An n8n expression default evaluated on an item (plain JS is enough for these defaults). */
function evaluate(expression, json) {
	const body = expression.replace(/^=\{\{/, '').replace(/\}\}$/, '');
	return new Function('$json', `return (${body});`)(json);
}

const CHAT_TRIGGER = { sessionId: 'a1b2c3', action: 'sendMessage', chatInput: 'hi' };
const TELEGRAM = { update_id: 5, message: { text: 'hi', date: 1, from: { id: 42 }, chat: { id: -100, type: 'group' } } };

test('User ID and Chat ID are separate: a chat session is not a person', () => {
	assert.equal(evaluate(field('userId').default, CHAT_TRIGGER), 'chat:owner');
	assert.equal(evaluate(field('chatId').default, CHAT_TRIGGER), 'a1b2c3');
	assert.equal(evaluate(field('userId').default, { ...CHAT_TRIGGER, metadata: { userId: 'u-7' } }), 'u-7');
	assert.equal(evaluate(field('userId').default, TELEGRAM), 'tg:42');
	assert.equal(evaluate(field('chatId').default, TELEGRAM), 'tg:-100');
	assert.ok(!field('userId').default.includes('sessionId'));
});

test('private memory: one-to-one chats by default, groups only when the persona opts in', () => {
	assert.equal(evaluate(field('chatType').default, TELEGRAM), 'group');
	assert.equal(evaluate(field('chatType').default, CHAT_TRIGGER), 'private');
	assert.equal(privateMemoryOf('oneToOne', 'private'), true);
	for (const kind of ['group', 'supergroup', 'channel']) assert.equal(privateMemoryOf('oneToOne', kind), false);
	assert.equal(privateMemoryOf('always', 'group'), true);
	assert.equal(privateMemoryOf('never', 'private'), false);
});

function twin(answers) {
	const calls = [];
	return {
		calls,
		getCredentials: async () => ({ pulseUrl: 'http://p', hydrateUrl: 'http://h', retrieveUrl: 'http://r', envelopeUrl: 'http://e' }),
		getNode: () => ({ name: 'n' }),
		getExecutionId: () => '1',
		helpers: {
			httpRequestWithAuthentication: {
				async call(_ctx, _cred, request) {
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

const GRAPH = { foundation: [{ fact_id: 'f1', text: 'Marta is the user\'s sister' }], pending_question: { question: 'Which Marta?' } };

test('in a group the load asks the one call without private memory and shows none of it', async () => {
	const ctx = twin({
		'/v1/turn': {
			next: 'model', pulse: { session: { turns: [] } }, hydrate: { GRAPH, active_entity_ids: ['e1'] },
			envelope: { messages: [{ role: 'system', content: 'chat only' }, { role: 'user', content: 'hi' }] },
		},
	});
	const memory = await loadMemory(ctx, {
		userId: 'tg:42', agentId: 'deanna', chatId: 'tg:-100', message: 'hi', messageId: 'tg:5', now: null,
		personaPrompt: '', budgetMs: 3000, maxRecentLines: 6, privateMemory: false,
	});
	assert.equal(ctx.calls[0].body.private_memory, false);
	assert.equal(memory.pendingQuestion, null);
	assert.deepEqual(memory.recalled, []);
	assert.deepEqual(memory.activeEntityIds, ['e1'], 'the commit still gets the active entities');
});

test('in a group the node-by-node load never retrieves nor renders the GRAPH', async () => {
	const ctx = twin({
		'/v1/turn': new Error('404'),
		'/v1/pulse': { session: { turns: [] }, AFFECT: {} },
		'/v1/hydrate': { GRAPH, active_entity_ids: ['e1'] },
		'/v1/envelope': { messages: [{ role: 'user', content: 'hi' }] },
	});
	await loadMemory(ctx, {
		userId: 'tg:42', agentId: 'deanna', chatId: 'tg:-100', message: 'hi', messageId: 'tg:5', now: null,
		personaPrompt: '', budgetMs: 3000, maxRecentLines: 6, privateMemory: false,
	});
	const routes = ctx.calls.map((c) => c.route);
	assert.ok(!routes.includes('/v1/retrieve'), routes.join());
	const envelope = ctx.calls.find((c) => c.route === '/v1/envelope').body;
	assert.deepEqual(envelope.GRAPH, { user_id: 'tg:42', agent_id: 'deanna' });
	assert.equal(envelope.EPISODE, undefined);
});

test('the recall tool does not search the person\'s memory in a group', async () => {
	const ctx = twin({});
	Object.assign(ctx, {
		getInputData: () => [{ json: {} }],
		getNodeParameter: (name) => ({ query: 'Marta', userId: 'tg:42', agentId: 'deanna', chatId: 'tg:-100', privateMemory: 'oneToOne', chatType: 'group', limit: 5 })[name],
		continueOnFail: () => false,
	});
	const [[item]] = await new TwinCoreRecall().execute.call(ctx);
	assert.deepEqual(item.json.found, []);
	assert.match(item.json.note, /not private/);
	assert.equal(ctx.calls.length, 0);
});

test('the credential test calls a token-protected route (/v1/*) with the bearer token', () => {
	const { TwinCoreApi } = require('../dist/credentials/TwinCoreApi.credentials.js');
	const credential = new TwinCoreApi();
	const { request } = credential.test;
	// services/core/auth.py guards every /v1/ path; /readyz, /healthz and /version stay open.
	assert.match(request.url, /^\/v1\//);
	assert.equal(request.baseURL, '={{$credentials.memoryUrl}}');
	assert.equal(credential.authenticate.properties.headers.Authorization, '=Bearer {{$credentials.token}}');
});
