package server

// importRoutes are the routes that read rosters and boards for the
// scenario editor (issue 35).
func (s *Server) importRoutes() []route { return nil }
