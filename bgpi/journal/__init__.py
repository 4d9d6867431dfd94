"""The journal: its records, the SQLite store, the file's damage, and the `.mat` export."""
