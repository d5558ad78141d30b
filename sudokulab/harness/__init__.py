"""The harness: datasets, the runner, the cross-check, reports and plots."""
