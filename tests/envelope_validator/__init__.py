"""envelope-validator: pure logic, rendering, and the route through the app."""
