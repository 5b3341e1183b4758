"""One blueprint per area of the site."""
