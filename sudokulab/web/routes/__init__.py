"""The page's routers, one per use: pages, solve, learn, setter and teach; web/app.py
assembles them."""
