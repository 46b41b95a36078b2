"""The pack editor: the pack window (generated forms, YAML, problems) and its scenario runs."""
