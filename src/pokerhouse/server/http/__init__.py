"""The HTTP edge: who is asking (sessions, tokens, CSRF), guards, throttles, paging,
problems, the API document.
"""
