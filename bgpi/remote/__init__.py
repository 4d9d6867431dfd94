"""Two boards in two homes play a match over an MQTT broker.

The protocol (``docs/remote.md``) is a pure core: :mod:`~bgpi.remote.pairing` derives the keys
and topics from the match code, :mod:`~bgpi.remote.wire` seals and opens signed, numbered
messages, :mod:`~bgpi.remote.fairdice` turns both boards' secrets into dice, and
:mod:`~bgpi.remote.session` keeps the exchange in order and catches a cheat. The shell is
:mod:`~bgpi.remote.transport` (paho-mqtt) and :mod:`~bgpi.remote.log` (the messages on disk).
Nothing here imports paho-mqtt but the transport, so ``import bgpi.remote`` works anywhere.
"""
