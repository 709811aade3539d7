import type { IDataObject, IHttpRequestMethods, INodeProperties } from 'n8n-workflow';

import type { TwinNode } from '../shared/client';
import { type Get, ids, idsBody, json, message, now, optional, parsed, text } from './fields';

/** One Twin Core route as an n8n operation: its typed fields and how they make the body. */
export interface Operation {
	resource: 'turn' | 'memory' | 'knowledge';
	value: string;
	name: string;
	action: string;
	description: string;
	node: TwinNode;
	method: IHttpRequestMethods;
	route: string;
	fields: INodeProperties[];
	body: (get: Get) => IDataObject;
	query?: (get: Get) => IDataObject;
}

const when = (get: Get) => optional(get('now'));

export const OPERATIONS: Operation[] = [
	{
		resource: 'turn', value: 'pulse', name: 'Pulse', action: 'Count a turn and load working memory',
		description: 'Pulse-decay: the session, its recent turns and the affect state', node: 'pulse',
		method: 'POST', route: '/v1/pulse',
		fields: [...ids, message, text('messageId', 'Message ID', 'The message\'s ID: a retry is not counted twice'), now],
		body: (get) => ({ ...idsBody(get), message: get('message'), message_id: optional(get('messageId')), now: when(get) }),
	},
	{
		resource: 'turn', value: 'hydrate', name: 'Hydrate', action: 'Load the people and facts a message needs',
		description: 'Graph-hydrator: entities, facts, commitments and a pending question', node: 'hydrate',
		method: 'POST', route: '/v1/hydrate',
		fields: [...ids, message, json('activeEntityIds', 'Active Entity IDs', "Pulse's session.active_entity_ids", '[]'), now],
		body: (get) => ({ ...idsBody(get), message: get('message'), active_entity_ids: parsed(get('activeEntityIds')) ?? [], now: when(get) }),
	},
	{
		resource: 'turn', value: 'retrieve', name: 'Retrieve', action: 'Recall past turns, episodes and knowledge',
		description: 'Rag-gate: the gate decision, EPISODE, KNOWLEDGE and FACTS', node: 'retrieve',
		method: 'POST', route: '/v1/retrieve',
		fields: [
			...ids, message,
			json('entityIds', 'Entity IDs', "Hydrate's active_entity_ids", '[]'),
			{
				displayName: 'Gate', name: 'force', type: 'options', default: '',
				options: [
					{ name: 'Decide by Rules', value: '' },
					{ name: 'Always Retrieve', value: 'open' },
					{ name: 'Never Retrieve', value: 'closed' },
				],
			},
			now,
		],
		body: (get) => ({
			...idsBody(get), message: get('message'), entity_ids: parsed(get('entityIds')) ?? [],
			...(get('force') ? { force: get('force') } : {}), now: when(get),
		}),
	},
	{
		resource: 'turn', value: 'envelope', name: 'Envelope', action: 'Render the memory block for the model',
		description: 'Envelope-validator: the checked envelope and the chat messages', node: 'envelope',
		method: 'POST', route: '/v1/envelope',
		fields: [
			...ids,
			text('userMessage', 'User Message', 'The current user message', { required: true }),
			json('affect', 'AFFECT', "Pulse's AFFECT, whole"),
			json('graph', 'GRAPH', "Hydrate's GRAPH, whole"),
			json('retrieved', 'Retrieve Answer', "Retrieve's whole answer (its EPISODE, KNOWLEDGE and FACTS are used)"),
			json('recentTurns', 'Recent Turns', "Pulse's session.turns", '[]'),
			text('personaPrompt', 'Persona Prompt', 'Trusted text rendered as is', { typeOptions: { rows: 3 } }),
			{
				displayName: 'Answer Format', name: 'answerFormat', type: 'options', default: 'twin_answer',
				options: [
					{ name: 'Twin Answer (JSON Reply + Memory Plan)', value: 'twin_answer' },
					{ name: 'Plain Text (AI Agent)', value: 'text' },
				],
			},
			now,
		],
		body: (get) => {
			const retrieved = (parsed(get('retrieved')) ?? {}) as IDataObject;
			return {
				...idsBody(get), user_message: get('userMessage'), AFFECT: parsed(get('affect')),
				GRAPH: parsed(get('graph')),
				...(retrieved.EPISODE ? { EPISODE: retrieved.EPISODE, KNOWLEDGE: retrieved.KNOWLEDGE, FACTS: retrieved.FACTS } : {}),
				recent_turns: parsed(get('recentTurns')) ?? [], persona_prompt: get('personaPrompt'),
				answer_format: get('answerFormat'), now: when(get),
			};
		},
	},
	{
		resource: 'turn', value: 'commit', name: 'Commit', action: 'Save a turn and what to remember',
		description: "Memory-upserter: logs the turn and applies the plan (the model's, or the judge's)", node: 'memory',
		method: 'POST', route: '/v1/commit',
		fields: [
			...ids,
			text('turnId', 'Turn ID', "The turn's idempotency key, e.g. tg:<update_id>", { required: true }),
			text('userText', 'User Message', 'What the user said', { required: true }),
			text('assistantText', 'Reply', 'What the assistant answered (leave empty when Model Answer carries it)'),
			text('answer', 'Model Answer', "The model's raw twin_answer JSON; empty: Twin Core's judge writes the plan"),
			json('activeEntityIds', 'Active Entity IDs', "Hydrate's active_entity_ids", '[]'),
			now,
		],
		body: (get) => ({
			...idsBody(get), turn_id: get('turnId'),
			messages: [
				{ role: 'user', text: get('userText') },
				...(get('assistantText') ? [{ role: 'assistant', text: get('assistantText') }] : []),
			],
			...(get('answer') ? { answer: get('answer') } : {}),
			active_entity_ids: parsed(get('activeEntityIds')) ?? [], now: when(get),
		}),
	},
	{
		resource: 'memory', value: 'consolidate', name: 'Consolidate', action: 'Consolidate quiet sessions into episodes',
		description: 'Reflection-writer: the slow brain', node: 'reflect', method: 'POST', route: '/v1/consolidate',
		fields: [
			text('userId', 'User ID', 'Only this person (empty: everyone)'),
			text('agentId', 'Agent ID', 'Only this persona (empty: every persona)'),
			{ displayName: 'Inactivity (Minutes)', name: 'inactivityMinutes', type: 'number', default: 10, description: 'How long a session must be quiet' },
			now,
		],
		body: (get) => ({
			user_id: optional(get('userId')), agent_id: optional(get('agentId')),
			inactivity_minutes: get('inactivityMinutes'), now: when(get),
		}),
	},
	{
		resource: 'memory', value: 'forget', name: 'Forget', action: 'Forget a person, a fact or a text',
		description: 'Memory-upserter: soft by default, hard on request; vectors and working memory too', node: 'memory',
		method: 'POST', route: '/v1/forget',
		fields: [
			text('userId', 'User ID', "The person's ID", { required: true }),
			text('agentId', 'Agent ID', 'The persona (scope agent or session)'),
			text('chatId', 'Chat ID', 'The conversation (scope session)'),
			{
				displayName: 'Scope', name: 'scope', type: 'options', default: 'global',
				options: [
					{ name: 'Global (Every Persona)', value: 'global' },
					{ name: 'This Persona', value: 'agent' },
					{ name: 'This Session', value: 'session' },
				],
			},
			text('entity', 'Entity', 'A name, alias or entity ref to forget, e.g. Marta'),
			text('forgetText', 'Text', 'Or a text to forget'),
			{ displayName: 'Hard', name: 'hard', type: 'boolean', default: false, description: 'Whether to delete the rows instead of marking them forgotten' },
			text('reason', 'Reason', 'Why (kept in the audit log)'),
		],
		body: (get) => ({
			user_id: get('userId'), agent_id: optional(get('agentId')), chat_id: optional(get('chatId')),
			scope: get('scope'), hard: get('hard'), reason: optional(get('reason')) ?? 'n8n',
			targets: [
				...(get('entity') ? [{ entity: get('entity') }] : []),
				...(get('forgetText') ? [{ text: get('forgetText') }] : []),
			],
		}),
	},
	{
		resource: 'memory', value: 'export', name: 'Export', action: 'Export everything held about a person',
		description: 'Memory-upserter: every row and the working memory of one person, as one JSON document',
		node: 'memory', method: 'GET', route: '/v1/export',
		fields: [text('userId', 'User ID', "The person's ID", { required: true })],
		body: () => ({}),
		query: (get) => ({ user_id: get('userId') }),
	},
	{
		resource: 'knowledge', value: 'ingest', name: 'Ingest', action: 'Add a markdown document to a persona\'s library',
		description: 'Memory-upserter: chunks, embeds and indexes it (by content hash)', node: 'memory',
		method: 'POST', route: '/v1/knowledge',
		fields: [
			text('agentId', 'Agent ID', 'The persona whose library it joins', { required: true, default: 'twin' }),
			text('docId', 'Document ID', 'Stable ID: ingesting it again replaces the old version', { required: true }),
			text('title', 'Title', 'The document\'s title'),
			text('domain', 'Domain', 'e.g. nutrition', { default: 'general' }),
			text('markdown', 'Markdown', 'The document', { required: true, typeOptions: { rows: 6 } }),
			text('userId', 'User ID', 'Only this person sees it (empty: every user of the persona)'),
		],
		body: (get) => ({
			agent_id: get('agentId'), doc_id: get('docId'), title: optional(get('title')),
			domain: get('domain') || 'general', text: get('markdown'), user_id: optional(get('userId')),
		}),
	},
];
