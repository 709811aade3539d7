import {
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	type JsonObject,
} from 'n8n-workflow';

import { callTwin, requestId } from '../shared/client';
import { OPERATIONS } from './operations';
import { saveAgentTurn } from './save';

/** Not one route: waits for the AI Agent's background commit, or sends a pending one again. */
const SAVE_AGENT_TURN = {
	name: 'Save Agent Turn', value: 'saveAgentTurn', action: "Make sure the AI Agent's turn is stored",
	description: "After the reply: the Twin Core Memory node's commit of this execution, or a pending turn sent again",
};

const RESOURCES = [
	{ name: 'Turn', value: 'turn', description: 'The fast brain, one route per step of a turn' },
	{ name: 'Memory', value: 'memory', description: 'Consolidate, forget and export' },
	{ name: 'Knowledge', value: 'knowledge', description: "A persona's reference library" },
];

function properties(): INodeProperties[] {
	const out: INodeProperties[] = [
		{
			displayName: 'Resource', name: 'resource', type: 'options', noDataExpression: true,
			options: RESOURCES, default: 'turn',
		},
	];
	const operation = (resource: string, first: string): INodeProperties => ({
		displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: [
			...OPERATIONS.filter((op) => op.resource === resource).map((op) => ({
				name: op.name, value: op.value, action: op.action, description: op.description,
			})),
			...(resource === 'turn' ? [SAVE_AGENT_TURN] : []),
		],
		default: first,
	});
	out.push(operation('turn', 'pulse'), operation('memory', 'consolidate'), operation('knowledge', 'ingest'));
	for (const op of OPERATIONS) {
		for (const field of op.fields) {
			out.push({ ...field, displayOptions: { show: { resource: [op.resource], operation: [op.value] } } });
		}
	}
	out.push({
		displayName: 'Timeout (Ms)', name: 'timeoutMs', type: 'number', default: 60000,
		description: 'How long one call may take; a call on the reply\'s path (e.g. a Pulse before the agent) wants a short one',
	});
	return out;
}

/**
 * "Twin Core": one operation per Twin Core route, with typed fields instead of a raw JSON
 * body, for designers who build the flow by hand. Each item is one call; the node's answer is
 * the item's output as it is.
 */
export class TwinCore implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Twin Core',
		name: 'twinCore',
		icon: { light: 'file:twinCore.svg', dark: 'file:twinCore.dark.svg' },
		group: ['transform'],
		version: [1],
		subtitle: '={{ $parameter["resource"] + ": " + $parameter["operation"] }}',
		description: 'Call a Twin Core node: pulse, hydrate, retrieve, envelope, commit, consolidate, forget, export, knowledge',
		defaults: { name: 'Twin Core' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'twinCoreApi', required: true }],
		properties: properties(),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		if (this.getNodeParameter('operation', 0) === SAVE_AGENT_TURN.value) return saveAgentTurn.call(this);
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const resource = this.getNodeParameter('resource', i) as string;
			const operation = this.getNodeParameter('operation', i) as string;
			const op = OPERATIONS.find((o) => o.resource === resource && o.value === operation);
			try {
				if (!op) throw new NodeOperationError(this.getNode(), `Unknown operation ${resource}/${operation}`);
				const get = (name: string) => this.getNodeParameter(name, i, '') as IDataObject[string];
				const answer = await callTwin(this, {
					node: op.node, route: op.route, method: op.method, body: op.method === 'GET' ? undefined : op.body(get),
					qs: op.query?.(get), timeoutMs: Number(this.getNodeParameter('timeoutMs', i, 60000)) || 60000, requestId: requestId(this, `${op.value}-${i}`),
				});
				out.push({ json: answer as IDataObject, pairedItem: { item: i } });
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
