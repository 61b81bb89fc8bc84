"""The HTTP edge: who is asking (sessions, tokens, CSRF), guards, throttles, paging,
problems, the route table and the API document made from it.
"""
