import {
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	NodeApiError,
	NodeConnectionTypes,
	type JsonObject,
} from 'n8n-workflow';

import { callTwin, requestId } from '../shared/client';
import { identityFields, privateMemoryOf } from '../shared/fields';
import { provenance } from '../shared/recall';

/** What the tool answers where the person's private memory stays out (a group chat). */
export const WITHHELD =
	"This chat is not private (a group): the person's memory is not searched here. Answer without it.";

/**
 * "Recall from Twin Core": the agent searches the person's memory for a query of its own and
 * gets dated facts, past turns and episodes, each with its provenance and scores. Read-only:
 * it never counts a turn or writes anything.
 */
export class TwinCoreRecall implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Recall From Twin Core',
		name: 'twinCoreRecall',
		icon: { light: 'file:twinCore.svg', dark: 'file:twinCore.dark.svg' },
		group: ['transform'],
		version: [1],
		subtitle: '={{ "persona " + $parameter["agentId"] }}',
		description:
			"Search the person's memory: dated facts, past turns and episodes with their provenance",
		defaults: { name: 'Recall From Twin Core' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'twinCoreApi', required: true }],
		properties: [
			{
				displayName: 'Query',
				name: 'query',
				type: 'string',
				required: true,
				default: '',
				description: "What to look for in the person's memory, in their words (a name, a topic, a date)",
			},
			...identityFields.filter((field) => ['userId', 'agentId', 'chatId', 'messageTime', 'privateMemory', 'chatType'].includes(field.name)),
			{
				displayName: 'Limit',
				name: 'limit',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 50,
				description: 'Max number of results to return',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const userId = String(this.getNodeParameter('userId', i));
			const body: IDataObject = {
				user_id: userId,
				agent_id: String(this.getNodeParameter('agentId', i)),
				chat_id: String(this.getNodeParameter('chatId', i, '') || userId),
				message: String(this.getNodeParameter('query', i)),
				force: 'open',
				now: String(this.getNodeParameter('messageTime', i, '') || '') || null,
			};
			const limit = Number(this.getNodeParameter('limit', i, 50));
			if (!privateMemoryOf(this.getNodeParameter('privateMemory', i, 'oneToOne'), this.getNodeParameter('chatType', i, 'private'))) {
				out.push({ json: { query: body.message, found: [], note: WITHHELD }, pairedItem: { item: i } });
				continue;
			}
			try {
				const answer = await callTwin(this, {
					node: 'retrieve', route: '/v1/retrieve', body, timeoutMs: 10000,
					requestId: requestId(this, `recall-${i}`),
				});
				const found = provenance({}, answer).slice(0, limit);
				out.push({
					json: { query: body.message, found: found as unknown as IDataObject[], gate: answer.gate },
					pairedItem: { item: i },
				});
			} catch (error) {
				if (this.continueOnFail()) {
					out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
					continue;
				}
				throw new NodeApiError(this.getNode(), error as JsonObject, { itemIndex: i });
			}
		}
		return [out];
	}
}
