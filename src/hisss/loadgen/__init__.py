"""The load generator: many online games played at once against a server by websocket clients,
with the figures of a load test (``hisss loadtest``). It stands beside the server, which it starts
(or finds running at ``--url``), and is never imported by it.

* :mod:`hisss.loadgen.loadtest`: the test itself, its figures, and the server it starts.
* :mod:`hisss.loadgen.client`: one seat's lean websocket client.
"""
