package server

// reportRoutes are the routes of a game's after-action report (issue
// 36). Not yet written.
func (s *Server) reportRoutes() []route { return nil }
