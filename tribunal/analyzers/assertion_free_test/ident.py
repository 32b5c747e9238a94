"""The analyzer's id, below the package and both language halves so each imports it downward."""

ID = "assertion-free-test"
