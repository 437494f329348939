print("holdlab")
