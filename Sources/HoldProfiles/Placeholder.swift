enum _PlaceholderHoldProfiles {}
