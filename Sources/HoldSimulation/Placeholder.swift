enum _PlaceholderHoldSimulation {}
