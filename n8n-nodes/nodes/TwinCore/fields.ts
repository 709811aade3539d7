import type { IDataObject, INodeProperties } from 'n8n-workflow';

/** Reads one parameter of the current item. */
export type Value = IDataObject[string];
export type Get = (name: string) => Value;

export const text = (name: string, displayName: string, description: string, extra: Partial<INodeProperties> = {}): INodeProperties => ({
	displayName, name, type: 'string', default: '', description, ...extra,
});

export const json = (name: string, displayName: string, description: string, fallback = '{}'): INodeProperties => ({
	displayName, name, type: 'json', default: fallback, description,
});

export const ids: INodeProperties[] = [
	text('userId', 'User ID', "The person's ID, e.g. tg:12345", { required: true }),
	text('agentId', 'Agent ID', 'The persona, e.g. deanna', { required: true, default: 'twin' }),
	text('chatId', 'Chat ID', 'The conversation. Empty: the user ID.'),
];

export const message = text('message', 'Message', "The user's message this turn", { typeOptions: { rows: 2 } });

export const now = text('now', 'Now', "The turn's time, ISO 8601 with offset. Empty: the server clock.");

/** A JSON parameter as an object: n8n hands it over as a string or already parsed. */
export function parsed(value: Value): Value {
	if (typeof value !== 'string') return value ?? null;
	const trimmed = value.trim();
	return trimmed === '' ? null : (JSON.parse(trimmed) as Value);
}

export function idsBody(get: Get): IDataObject {
	const userId = String(get('userId'));
	return { user_id: userId, agent_id: String(get('agentId')), chat_id: String(get('chatId') || userId) };
}

export function optional(value: Value): Value {
	return value === '' || value === undefined ? null : value;
}
