"""The GM's workflow (DESIGN.md layer 7): each step a function over a store session and a time value, committing
once with the mail it queues."""
