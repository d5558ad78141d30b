"""The web server of `sudokulab serve`: app.py (routes), pool.py (workers), static/."""
