"""Jinja2 templates that emit one model file per deal."""
