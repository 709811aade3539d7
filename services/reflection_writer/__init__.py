"""reflection-writer: consolidates quiet sessions into grounded episodes, summaries, the spine
and curated facts."""
