"""The load generator: many online games played at once against a server by websocket clients,
with the figures of a load test (``hisss loadtest``). It stands beside the server, which it starts
(or finds running at ``--url``), and is never imported by it.

* :mod:`hisss.loadgen.loadtest`: the test itself and its figures.
* :mod:`hisss.loadgen.servers`: the servers it starts (one, or two sharing news through Redis).
* :mod:`hisss.loadgen.client`: one seat's lean websocket client.
"""
