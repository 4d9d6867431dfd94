"""The service around the table: the app and its loop, the driver that journals, tells and
shows each step, the config, its reload, and systemd's notifications."""
