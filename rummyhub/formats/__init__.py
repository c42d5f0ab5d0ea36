"""Date and number formats for the languages Django has none for (settings.FORMAT_MODULE_PATH):
Corsican.  Django's own modules serve the others."""
