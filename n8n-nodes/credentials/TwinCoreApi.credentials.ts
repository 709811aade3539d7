import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/** Where the six Twin Core nodes answer, and the bearer token they share (TWIN_NODE_TOKEN). */
export class TwinCoreApi implements ICredentialType {
	name = 'twinCoreApi';

	displayName = 'Twin Core API';

	icon: Icon = { light: 'file:twinCore.svg', dark: 'file:twinCore.dark.svg' };

	documentationUrl = 'https://github.com/twin-core/twin-core/tree/main/n8n-nodes#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Node Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The bearer token every Twin Core node checks (TWIN_NODE_TOKEN)',
		},
		{
			displayName: 'Pulse-Decay URL',
			name: 'pulseUrl',
			type: 'string',
			required: true,
			default: 'http://127.0.0.1:8101',
			description: 'Base URL of pulse-decay (working memory, affect). Compose: http://pulse-decay:8101.',
		},
		{
			displayName: 'Graph-Hydrator URL',
			name: 'hydrateUrl',
			type: 'string',
			required: true,
			default: 'http://127.0.0.1:8102',
			description: 'Base URL of graph-hydrator (people, facts, commitments)',
		},
		{
			displayName: 'RAG-Gate URL',
			name: 'retrieveUrl',
			type: 'string',
			required: true,
			default: 'http://127.0.0.1:8103',
			description: 'Base URL of rag-gate (episodes, recalled turns, knowledge)',
		},
		{
			displayName: 'Envelope-Validator URL',
			name: 'envelopeUrl',
			type: 'string',
			required: true,
			default: 'http://127.0.0.1:8104',
			description: 'Base URL of envelope-validator (renders the memory block)',
		},
		{
			displayName: 'Reflection-Writer URL',
			name: 'reflectUrl',
			type: 'string',
			required: true,
			default: 'http://127.0.0.1:8105',
			description: 'Base URL of reflection-writer (consolidation, day log)',
		},
		{
			displayName: 'Memory-Upserter URL',
			name: 'memoryUrl',
			type: 'string',
			required: true,
			default: 'http://127.0.0.1:8106',
			description:
				'Base URL of memory-upserter (commit, forget, knowledge, export). The credential test reads an empty export (GET /v1/export), a token-protected route: a wrong token or URL fails the test.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.token}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.memoryUrl}}',
			url: '/v1/export',
			qs: { user_id: 'n8n-credential-test' },
		},
	};
}
