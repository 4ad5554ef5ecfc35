"""harvest: scrape listing sites nightly, keep the records, tell Slack what changed."""
