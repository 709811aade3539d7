/**
 * Loads shared by the runs of one execution. n8n's AI Agent runs again after its tools answer
 * and asks its memory again; the memory load (one fast-brain round) must not repeat. An entry
 * lives from the first load to the turn's commit or the end of the execution, whichever comes
 * first, and at most MAX_ENTRIES are kept: nothing outlives the executions running now, so the
 * package stays safe in queue mode (a miss only costs one more load, never a wrong answer).
 */
const MAX_ENTRIES = 256;
const entries = new Map<string, Promise<unknown>>();

export function memoized<T>(key: string, load: () => Promise<T>): Promise<T> {
	const known = entries.get(key) as Promise<T> | undefined;
	if (known) return known;
	const loading = load();
	entries.set(key, loading);
	while (entries.size > MAX_ENTRIES) {
		const oldest = entries.keys().next().value as string;
		entries.delete(oldest);
	}
	return loading;
}

export function forget(key: string): void {
	entries.delete(key);
}
