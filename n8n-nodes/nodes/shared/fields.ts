import type { INodeProperties } from 'n8n-workflow';

/**
 * Who is talking to whom, with defaults that fit both the Telegram Trigger (`message.from`,
 * `message.chat`, `update_id`, `message.date`) and the Chat Trigger (`sessionId`, `chatInput`).
 */
const PERSON =
	"$json.message && $json.message.from ? 'tg:' + $json.message.from.id : ($json.metadata && $json.metadata.userId ? String($json.metadata.userId) : 'chat:owner')";

export const identityFields: INodeProperties[] = [
	{
		displayName: 'User ID',
		name: 'userId',
		type: 'string',
		required: true,
		default: `={{ ${PERSON} }}`,
		description:
			"The person, the same in every chat and session: Telegram's sender ID with a tg: prefix; with the Chat Trigger, the user ID the chat sends in its metadata (metadata.userId), else chat:owner (one person: set your own ID here for a chat that several people use). Never the session ID: a new session is not a new person.",
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
	{
		displayName: 'Private Memory',
		name: 'privateMemory',
		type: 'options',
		default: 'oneToOne',
		options: [
			{ name: 'In One-to-One Chats Only', value: 'oneToOne', description: 'A group reads the reply: there the agent gets this chat\'s recent turns only' },
			{ name: 'Always (Groups Too)', value: 'always', description: 'This persona may use the person\'s private memory in a group (opt-in)' },
			{ name: 'Never', value: 'never' },
		],
		description:
			"Whether the person's private memory (facts, people, commitments, past sessions) may reach this reply",
	},
	{
		displayName: 'Chat Type',
		name: 'chatType',
		type: 'string',
		default: "={{ $json.message && $json.message.chat ? $json.message.chat.type : 'private' }}",
		description:
			"Telegram's chat type: private is one-to-one; group, supergroup and channel are read in company",
	},
];

/** Whether the person's private memory may reach this reply: by the designer's choice and the chat's type. */
export function privateMemoryOf(choice: unknown, chatType: unknown): boolean {
	if (choice === 'always' || choice === true) return true;
	if (choice === 'never' || choice === false) return false;
	const type = String(chatType ?? '').trim().toLowerCase();
	return type === '' || type === 'private';
}
