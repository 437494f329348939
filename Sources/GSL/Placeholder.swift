enum _PlaceholderGSL {}
