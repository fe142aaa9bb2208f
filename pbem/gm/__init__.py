"""The GM's workflow (DESIGN.md item 7): plain functions over a store session and a time value, each step
committed once with the mail it queues; the command line only parses and prints."""
