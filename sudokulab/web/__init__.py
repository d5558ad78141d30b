"""The web server of `sudokulab serve`: app.py (assembly), routes/, pool.py, static/."""
