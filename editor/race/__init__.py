"""The Test race dock: watched races, the human seat, batches and their report and heat maps."""
