import { supplyMemory } from '@n8n/ai-node-sdk';
import {
	type IDataObject,
	type INodeType,
	type INodeTypeDescription,
	type ISupplyDataFunctions,
	NodeConnectionTypes,
	type SupplyData,
} from 'n8n-workflow';

import { forget, memoized } from '../shared/executionMemo';
import { identityFields, privateMemoryOf } from '../shared/fields';
import { loadMemory, type LoadedMemory } from '../shared/recall';
import { turnId } from '../shared/turns';
import { type Session, TwinCoreChatMemory } from './memory';

interface MemoryOptions {
	personaPrompt?: string;
	loadBudgetMs?: number;
	commitTimeoutMs?: number;
	recentLines?: number;
}

export class TwinCoreMemory implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Twin Core Memory',
		name: 'twinCoreMemory',
		icon: { light: 'file:twinCore.svg', dark: 'file:twinCore.dark.svg' },
		group: ['transform'],
		version: [1],
		subtitle: '={{ "persona " + $parameter["agentId"] }}',
		description:
			"The person's memory for an AI Agent: facts, people, commitments and past sessions, shared by every persona",
		defaults: { name: 'Twin Core Memory' },
		codex: {
			categories: ['AI'],
			subcategories: { AI: ['Memory'], Memory: ['Other memories'] },
			resources: {
				primaryDocumentation: [
					{ url: 'https://github.com/twin-core/twin-core/tree/main/n8n-nodes#twin-core-memory' },
				],
			},
		},
		inputs: [],
		outputs: [NodeConnectionTypes.AiMemory],
		outputNames: ['Memory'],
		credentials: [{ name: 'twinCoreApi', required: true }],
		properties: [
			...identityFields,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Commit Timeout (Ms)',
						name: 'commitTimeoutMs',
						type: 'number',
						default: 10000,
						description:
							'How long saving the turn may take. The reply never waits for it: the commit runs after the agent answers, and a Save Agent Turn node after the reply collects its outcome.',
					},
					{
						displayName: 'Memory Load Budget (Ms)',
						name: 'loadBudgetMs',
						type: 'number',
						default: 3000,
						description:
							'The whole memory load (pulse, hydrate, retrieve, envelope) may take this long; past it the agent answers with what arrived (at least the recent turns when pulse answered)',
					},
					{
						displayName: 'Persona Prompt',
						name: 'personaPrompt',
						type: 'string',
						typeOptions: { rows: 3 },
						default: '',
						description:
							"Rendered as trusted text inside the memory block. The AI Agent's own system message works too.",
					},
					{
						displayName: 'Recent Lines Without Envelope',
						name: 'recentLines',
						type: 'number',
						default: 10,
						description:
							'When the envelope cannot be built, how many lines of working memory the agent still gets (cut by whole turns)',
					},
				],
			},
		],
	};

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		const userId = String(this.getNodeParameter('userId', itemIndex));
		const agentId = String(this.getNodeParameter('agentId', itemIndex));
		const chatId = String(this.getNodeParameter('chatId', itemIndex) || userId);
		const message = String(this.getNodeParameter('message', itemIndex) ?? '');
		const given = String(this.getNodeParameter('turnId', itemIndex, '') ?? '');
		const now = String(this.getNodeParameter('messageTime', itemIndex, '') ?? '') || null;
		const privateMemory = privateMemoryOf(
			this.getNodeParameter('privateMemory', itemIndex, 'oneToOne'),
			this.getNodeParameter('chatType', itemIndex, 'private'),
		);
		const options = this.getNodeParameter('options', itemIndex, {}) as MemoryOptions;
		const executionId = this.getExecutionId();
		const id = turnId(given, executionId, [userId, agentId, chatId], message);
		const load = {
			userId, agentId, chatId, message, messageId: id, now,
			personaPrompt: options.personaPrompt ?? '',
			budgetMs: options.loadBudgetMs ?? 3000,
			maxRecentLines: options.recentLines ?? 10,
			privateMemory,
		};
		const key = `${executionId}\u0000${this.getNode().name}\u0000${id}`;
		const report = (action: string, json: IDataObject) => {
			try {
				const { index } = this.addInputData(NodeConnectionTypes.AiMemory, [[{ json: { action } }]]);
				this.addOutputData(NodeConnectionTypes.AiMemory, index, [[{ json: { action, ...json } }]]);
			} catch {
				// a commit that ends after its execution: the Save Agent Turn node has its outcome
			}
		};
		let mine: Promise<LoadedMemory> | undefined;
		const session: Session = {
			settings: { load, turnId: id, externalId: null, commitTimeoutMs: options.commitTimeoutMs ?? 10000 },
			loaded: () => {
				mine ??= memoized(key, async () => {
					const memory = await loadMemory(this, load);
					report('twinCoreRecall', {
						turn_id: id,
						user_id: userId,
						agent_id: agentId,
						chat_id: chatId,
						private_memory: privateMemory,
						gate: memory.gate,
						pending_question: memory.pendingQuestion,
						recalled: memory.recalled as unknown as IDataObject[],
						degraded: memory.degraded,
						timings_ms: memory.timingsMs,
						history_lines: memory.history.length,
					});
					return memory;
				});
				return mine;
			},
			done: () => forget(key),
			report,
		};
		this.onExecutionFinish?.(() => forget(key));
		return supplyMemory(this, new TwinCoreChatMemory(this, session));
	}
}
