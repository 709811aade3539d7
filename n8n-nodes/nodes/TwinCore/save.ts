import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { type CommitOutcome, sendCommit, take } from '../shared/pending';

/**
 * *Turn → Save Agent Turn*: after the reply, makes sure the AI Agent's turn is stored.
 *
 * An input item that carries `pending` (a commit body from an earlier attempt, kept by the
 * workflow across a durable wait) is committed again. Any other input stands for "this
 * execution": the node waits for the commits the Twin Core Memory node started when the agent
 * answered (the reply did not wait for them) and outputs their outcomes.
 *
 * Each output item is one turn: `committed` (stored now, or before: `already_stored`), else
 * `retry` (a later attempt can succeed), `pending` (the body to send again), `attempts`, and
 * `first_failure` (true once per turn: the attempt that should raise the alert).
 */
export async function saveAgentTurn(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const out: INodeExecutionData[] = [];
	let tookThisExecution = false;
	for (let i = 0; i < items.length; i++) {
		const pending = items[i].json.pending;
		if (pending && typeof pending === 'object' && !Array.isArray(pending)) {
			const attempts = Number(items[i].json.attempts) || 1;
			const timeoutMs = Number(this.getNodeParameter('timeoutMs', i, 10000)) || 10000;
			const result = await sendCommit(this, pending as IDataObject, timeoutMs, attempts + 1);
			out.push({ json: view(result), pairedItem: { item: i } });
			continue;
		}
		if (tookThisExecution) continue; // one Telegram reply in several chunks is still one turn
		tookThisExecution = true;
		const outcomes = await take(this.getExecutionId());
		for (const result of outcomes) out.push({ json: view(result), pairedItem: { item: i } });
		if (outcomes.length === 0) {
			out.push({
				json: { committed: true, turn_id: null, note: 'the agent saved no turn in this execution' },
				pairedItem: { item: i },
			});
		}
	}
	return [out];
}

function view(result: CommitOutcome): IDataObject {
	return {
		...(result as unknown as IDataObject),
		first_failure: !result.committed && result.attempts === 1,
	};
}
