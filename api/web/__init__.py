"""The web page for the people at the table: plain HTML, ES modules and CSS (``static/``), served by the HTTP service."""
