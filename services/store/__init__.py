"""The event store port and its adapters (PostgreSQL via asyncpg, and in memory)."""
