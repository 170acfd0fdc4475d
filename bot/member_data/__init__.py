"""A member's own data: their page (Slack's Home tab), exports, erasure, readiness."""
