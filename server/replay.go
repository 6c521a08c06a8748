package server

// replayRoutes are the routes of a game's replay (issue 36): a seat
// steps through the game as it saw it. Not yet written.
func (s *Server) replayRoutes() []route { return nil }
