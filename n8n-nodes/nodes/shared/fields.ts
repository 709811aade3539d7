import type { INodeProperties } from 'n8n-workflow';

/**
 * Who is talking to whom, with defaults that fit both the Telegram Trigger (`message.from`,
 * `message.chat`, `update_id`, `message.date`) and the Chat Trigger (`sessionId`, `chatInput`).
 */
export const identityFields: INodeProperties[] = [
	{
		displayName: 'User ID',
		name: 'userId',
		type: 'string',
		required: true,
		default: "={{ $json.message ? 'tg:' + $json.message.from.id : $json.sessionId }}",
		description: "The person's ID. Every persona sees this person's shared facts.",
	},
	{
		displayName: 'Agent ID',
		name: 'agentId',
		type: 'string',
		required: true,
		default: 'twin',
		description:
			'The persona. Commitments, episodes and knowledge are kept per persona; the person\'s facts are shared.',
	},
	{
		displayName: 'Chat ID',
		name: 'chatId',
		type: 'string',
		default: "={{ $json.message ? 'tg:' + $json.message.chat.id : $json.sessionId }}",
		description: 'The conversation (its working memory). Empty: the user ID.',
	},
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		default:
			"={{ $json.message ? ($json.message.text || $json.message.caption || '') : $json.chatInput }}",
		description: "The user's message this turn: memory is recalled for it",
	},
	{
		displayName: 'Turn ID',
		name: 'turnId',
		type: 'string',
		default: "={{ $json.update_id ? 'tg:' + $json.update_id : '' }}",
		description:
			"The turn's idempotency key (a redelivered update is saved once). Empty: derived from the execution and the message.",
	},
	{
		displayName: 'Message Time',
		name: 'messageTime',
		type: 'string',
		default:
			"={{ $json.message && $json.message.date ? DateTime.fromSeconds($json.message.date, { zone: 'utc' }).toISO() : $now.toISO() }}",
		description: 'When the message was sent (ISO 8601 with offset): decides recency and sessions',
	},
];
