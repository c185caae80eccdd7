"""Messages of uckers.v1, generated from proto/ by clients/python/generate."""
