"""The HTTP service: the FastAPI app, its routes, the edge in front of it and the uvicorn server."""
