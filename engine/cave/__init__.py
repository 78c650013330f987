"""Cave Rangers: gold, creatures and bots in any language (spec/cave.md)."""
