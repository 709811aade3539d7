import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	ISupplyDataFunctions,
} from 'n8n-workflow';

/** The six Twin Core nodes, by the credential field holding each one's base URL. */
export const NODE_URL_FIELDS = {
	pulse: 'pulseUrl',
	hydrate: 'hydrateUrl',
	retrieve: 'retrieveUrl',
	envelope: 'envelopeUrl',
	reflect: 'reflectUrl',
	memory: 'memoryUrl',
} as const;

export type TwinNode = keyof typeof NODE_URL_FIELDS;

export type TwinContext = IExecuteFunctions | ISupplyDataFunctions;

export interface TwinCall {
	node: TwinNode;
	route: string;
	method?: IHttpRequestMethods;
	body?: IDataObject;
	qs?: IDataObject;
	/** Milliseconds before the call is abandoned. */
	timeoutMs: number;
	/** Sent as X-Request-Id: the nodes log it, so one execution's calls can be found. */
	requestId: string;
}

/**
 * One HTTP call to a Twin Core node through n8n's own request helper, authenticated with the
 * "Twin Core API" credential. Holds nothing between calls: the credential is read per call
 * (n8n caches it for the execution), so the package is safe in queue mode.
 */
export async function callTwin(ctx: TwinContext, call: TwinCall): Promise<IDataObject> {
	const credentials = await ctx.getCredentials('twinCoreApi');
	const base = String(credentials[NODE_URL_FIELDS[call.node]] ?? '').replace(/\/+$/, '');
	const answer = await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'twinCoreApi', {
		method: call.method ?? 'POST',
		url: `${base}${call.route}`,
		body: call.body,
		qs: call.qs,
		json: true,
		timeout: Math.max(1, Math.round(call.timeoutMs)),
		headers: { 'X-Request-Id': call.requestId },
	});
	return (answer ?? {}) as IDataObject;
}

/** The X-Request-Id of one call: `n8n-<execution>-<node name>-<route>`. */
export function requestId(ctx: TwinContext, what: string): string {
	const node = ctx.getNode().name.replace(/[^A-Za-z0-9_.-]+/g, '_');
	return `n8n-${ctx.getExecutionId()}-${node}-${what}`.slice(0, 128);
}
