"""Radio link: frame codec, authentication, de-duplication, serial transport, simulator (no Qt)."""
