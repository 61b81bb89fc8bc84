"""The websocket edge: the endpoint, each connection, the messages in and out, their
limits.
"""
