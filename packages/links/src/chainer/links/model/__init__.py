"""Model links: wrappers around predictors (Classifier, ...)."""
