enum _PlaceholderHoldModel {}
